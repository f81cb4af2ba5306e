/**
 * `/dev/stdin` (and `/dev/fd/0`, `/proc/self/fd/0`) named as a file operand reads the
 * command's standard input, as `-` does; just-bash kept an empty file there, so
 * `echo x | cat /dev/stdin` printed nothing. This covers the commands that read their
 * operands through just-bash's common file reader (sort, uniq, head, wc…) and for cat; a
 * `< /dev/stdin` redirection still reads the empty file.
 */
import type { Patch } from "./patch.ts";

export const devStdinOperand: Patch = {
  name: "dev-stdin-operand",
  why: "A /dev/stdin file operand reads the command's standard input.",
  edits: [
    {
      find: 'if(s&&p==="-")return{filename:"-",content:e.stdin,error:null};',
      replace:
        'if(s&&p==="-"||p==="/dev/stdin"||p==="/dev/fd/0"||p==="/proc/self/fd/0")return{filename:p,content:e.stdin,error:null};',
    },
    {
      // cat reads its operands itself.
      find: 'for(let S of h)try{let E=S==="-"?t.stdin:',
      replace: 'for(let S of h)try{let E=S==="-"||S==="/dev/stdin"||S==="/dev/fd/0"||S==="/proc/self/fd/0"?t.stdin:',
    },
  ],
  shows: ["echo piped | cat /dev/stdin", "printf 'b\\na\\n' | sort /dev/stdin; echo x | wc -l /dev/stdin"],
};
