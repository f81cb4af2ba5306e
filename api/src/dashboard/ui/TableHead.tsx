/**
 * A table's header row: one column header per entry, scoped to its column (WCAG 1.3.1), with
 * numeric columns right-aligned like their cells (`num`).
 */
import type { Child } from "hono/jsx";

export type Column = string | { label: Child; num?: boolean };

export function TableHead({ columns }: { columns: Column[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          const { label, num } = typeof column === "string" ? { label: column, num: false } : column;
          return (
            <th scope="col" class={num ? "num" : undefined}>
              {label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
