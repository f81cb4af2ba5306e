/**
 * A long id (a run's, a workspace's) shortened to fit its cell, with a button that copies
 * the whole id. The full id stays in the page: in the title, in `data-id`, and in the link
 * the short form sits in, so nothing is lost when the script is off.
 */
import { shortId } from "../format.ts";

export interface CopyableIdProps {
  id: string;
  /** What the id names, for the button's accessible name: "run", "workspace". */
  noun: string;
  /** Where the short id links to, if anywhere. */
  href?: string | undefined;
}

export function CopyableId({ id, noun, href }: CopyableIdProps) {
  const short = (
    <code class="id short-id" title={id} data-id={id}>
      {shortId(id)}
    </code>
  );
  return (
    <span class="copyable">
      {href === undefined ? short : <a href={href}>{short}</a>}
      <button type="button" class="copy" data-copy={id} aria-label={`Copy the full ${noun} id ${id}`}>
        Copy
      </button>
    </span>
  );
}
