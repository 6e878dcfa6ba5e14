import type { ReactNode } from 'react';

/** A list of facts about the signed-in user (the dashboard's and the profile's): a term and its value each. */
export function Facts({ facts }: { facts: Array<{ term: string; value: ReactNode; mono?: boolean }> }) {
  return (
    <dl className="facts">
      {facts.map(({ term, value, mono }) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd className={mono ? 'mono' : undefined}>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One fact of a bot card: its term and value, the title shown on both. */
export function Fact({ label, value, title }: { label: string; value: string; title?: string }) {
  return (
    <div>
      <dt title={title}>{label}</dt>
      <dd title={title ? `${value} · ${title}` : value}>{value}</dd>
    </div>
  );
}
