/**
 * How many bots react to fills at once (issue 16, fleet tick latency). A tick of the paper feed fills
 * the orders of hundreds of bots at the same moment; reacting to all of them together made them
 * advance in lockstep (every bot's first exchange call, then every bot's second, …), so every reaction
 * reached its record only when the last one did, and all waited for one large event-store commit.
 * Through the gate they react in waves: the first bots record (and their commit runs on the writer
 * thread) while the next ones are still deciding.
 *
 * A slot is held from the start of a reaction until it asks for its record (GridRunner.record) or
 * ends, and never longer than `maxHoldMs`: a reaction waiting on a back-off never holds up others.
 */
export class ReactionGate {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly limit: number,
    private readonly maxHoldMs = 100,
  ) {}

  /** Resolves once a slot is free; the returned function frees it (calling it again does nothing). */
  async enter(): Promise<() => void> {
    if (this.active < this.limit) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // the slot is handed over
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
    const timer = setTimeout(release, this.maxHoldMs);
    timer.unref?.();
    return release;
  }

  /** Reactions running and waiting now (tests). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiting.length };
  }
}
