/**
 * sed's `a`, `i` and `c` read their text as GNU sed does on one line: `$a\end` appends `end`
 * (the backslash only marks where the text starts, and blanks after it are kept: `a\  x` is
 * `  x`), and `a  text` drops all the blanks before the text. just-bash kept the backslash
 * (`\end`) and dropped one blank only.
 */
import type { Patch } from "./patch.ts";

export const sedTextCommands: Patch = {
  name: "sed-text-commands",
  why: "sed's one-line a\\text, i\\text, c\\text drop the backslash, keep blanks after it, and a text drops leading blanks.",
  edits: [
    {
      find: 'readTextCommand(t,n,r){let s=!1;this.peek()==="\\\\"&&this.pos+1<this.input.length&&(this.input[this.pos+1]===`\n`||this.input[this.pos+1]===" "||this.input[this.pos+1]==="\t")&&(s=!0,this.advance()),(this.peek()===" "||this.peek()==="\t")&&this.advance(),this.peek()==="\\\\"&&this.pos+1<this.input.length&&(this.input[this.pos+1]===" "||this.input[this.pos+1]==="\t")&&this.advance(),s&&this.peek()===`\n`&&this.advance();',
      replace:
        'readTextCommand(t,n,r){for(;this.peek()===" "||this.peek()==="\t";)this.advance();this.peek()==="\\\\"&&this.pos+1<this.input.length&&(this.advance(),this.peek()===`\n`&&this.advance());',
    },
  ],
  shows: [
    "printf 'a\\nb\\n' | sed '$a\\end'; printf 'a\\n' | sed '1i\\start'; printf 'a\\n' | sed 'a  two spaces'; printf 'a\\n' | sed '1c\\changed'",
    "printf 'a\\nb\\n' | sed '/a/a\\  indented'; printf 'a\\n' | sed '1a\\\nnext line'; printf 'a\\n' | sed -e '1a\\' -e 'from e'",
  ],
};
