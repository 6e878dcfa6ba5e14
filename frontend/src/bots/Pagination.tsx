import { ChevronLeft, ChevronRight } from 'lucide-react';

export const PAGE_SIZE = 9;

export function pageCount(total: number, size = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(total / size));
}

export function pageSlice<T>(items: T[], page: number, size = PAGE_SIZE): T[] {
  return items.slice((page - 1) * size, page * size);
}

/** Page controls: previous, numbered pages, next. */
export function Pagination({ page, total, onPage, label }: { page: number; total: number; onPage: (p: number) => void; label: string }) {
  const pages = pageCount(total);
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label={label}>
      <button type="button" className="btn btn--ghost btn--small" onClick={() => onPage(page - 1)} disabled={page <= 1} aria-label="Previous page">
        <ChevronLeft size={16} aria-hidden="true" />
      </button>
      <ul>
        {Array.from({ length: pages }, (_, i) => i + 1).map((p) => (
          <li key={p}>
            <button
              type="button"
              className={`page-btn${p === page ? ' page-btn--current' : ''}`}
              aria-current={p === page ? 'page' : undefined}
              aria-label={`Page ${p}`}
              onClick={() => onPage(p)}
            >
              {p}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="btn btn--ghost btn--small" onClick={() => onPage(page + 1)} disabled={page >= pages} aria-label="Next page">
        <ChevronRight size={16} aria-hidden="true" />
      </button>
      <span className="pagination__info" aria-live="polite">
        Page {page} of {pages}
      </span>
    </nav>
  );
}
