/**
 * Why a form's submit button is disabled (issue 40, point 7): the lines of saveReasons, beside the button
 * and tied to it (give the button `aria-describedby={id}`), shown for as long as it is disabled.
 */
export function SaveReasons({ id, reasons, action = 'Save' }: { id: string; reasons: readonly string[]; action?: string }) {
  if (reasons.length === 0) return null;
  return (
    <div id={id} className="save-reasons" data-testid="save-reasons" aria-live="polite">
      <p className="save-reasons__head">{action} is disabled:</p>
      <ul>
        {reasons.map((r) => (
          <li key={r}>{r}</li>
        ))}
      </ul>
    </div>
  );
}
