import type { ReactNode } from 'react';
import { compact, price, usdt } from './format';

/**
 * The pieces every style's preview is made of (the ladder's, the neutral grid's, the infinity grid's): the
 * section with its title, the hint shown until the numbers are in, and the table of orders (what names the
 * order, its price, size and value), with rows for an order and for a note across the table.
 */
export function PreviewSection({ title, testId, children }: { title: string; testId?: string; children: ReactNode }) {
  return (
    <section className="preview" aria-labelledby="preview-title" data-testid={testId}>
      <h3 id="preview-title">{title}</h3>
      {children}
    </section>
  );
}

/** The preview before its numbers are in: what to fill in to see the orders. */
export function PreviewHint({ title, hint }: { title: string; hint: string }) {
  return (
    <PreviewSection title={title}>
      <p className="muted">{hint}</p>
    </PreviewSection>
  );
}

export function PreviewTable({ label, first, named = false, children }: { label: string; first: string; named?: boolean; children: ReactNode }) {
  return (
    <div className="preview__scroll">
      <table className={named ? 'preview__table preview__table--named' : 'preview__table'} aria-label={label}>
        <thead>
          <tr>
            <th scope="col">{first}</th>
            <th scope="col">Price</th>
            <th scope="col">Size</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** One order: its name, price, size and value (a price at or below zero is marked: the settings cannot place it). */
export function OrderRow({ name, order }: { name: ReactNode; order: { price: number; size: number } }) {
  return (
    <tr className={order.price <= 0 ? 'preview__bad' : undefined}>
      <td>{name}</td>
      <td className="num">{price(order.price)}</td>
      <td className="num">{compact(order.size)}</td>
      <td className="num">{usdt(order.price * order.size)}</td>
    </tr>
  );
}

/** A line across the table: what is cut from it (muted), or, with a row class, where no order stands. */
export function NoteRow({ rowClassName, children }: { rowClassName?: string; children: ReactNode }) {
  return (
    <tr className={rowClassName}>
      <td colSpan={4} className={rowClassName ? undefined : 'muted'}>
        {children}
      </td>
    </tr>
  );
}
