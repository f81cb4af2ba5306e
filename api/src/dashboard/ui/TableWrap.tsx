/**
 * A table's horizontally scrolling frame. At phone width it scrolls, so it must be reachable
 * by keyboard (WCAG 2.1.1; axe's scrollable-region-focusable): a focusable, labelled region.
 */
import type { Child } from "hono/jsx";

export function TableWrap({ label, class: extra, children }: { label: string; class?: string; children?: Child }) {
  return (
    <section class={extra ? `table-wrap ${extra}` : "table-wrap"} aria-label={label} tabindex={0}>
      {children}
    </section>
  );
}
