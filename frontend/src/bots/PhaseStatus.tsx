import type { BotState } from '../api/types';

/** A bot's phase in words, as its card, its page and its Start button say it. */
export const PHASE_TEXT = { stopped: 'Stopped', starting: 'Starting…', running: 'Running', stopping: 'Stopping…' } as const;

/** The phase pill (a dot and the phase's words) of the bot card and the bot page (issue 42: each drew it). */
export function PhaseStatus({ phase }: { phase: BotState }) {
  return (
    <span className={`status status--${phase}`} role="status">
      <span className="status__dot" aria-hidden="true" />
      {PHASE_TEXT[phase]}
    </span>
  );
}
