/**
 * Arithmetic errors read as bash's: the expression, the message and the token where it went
 * wrong, `bash: line 1: 1/0: division by 0 (error token is "0")`, with `((: ` or `let: `
 * before it for those commands. just-bash printed the message alone (`division by 0`), or
 * `bash: arithmetic expression: …` for `(( ))`, without a line.
 *
 * An error in `$(( ))` abandons the rest of the line with status 1 (the next line runs), as
 * an expansion error does in bash; just-bash went on with the next command of the line.
 * A missing operand (`1 +* 2`, `()`) is "operand expected"; just-bash read it as 0 and
 * printed a number. Leftover text after a whole expression (`1 2`) is "syntax error in
 * expression".
 *
 * The token is bash's where the parser knows it; for division by 0 and a negative exponent
 * it is found again in the text (the operand after the first `/` or `%` whose operand is a
 * literal 0, else the last one; the token after the exponent, else the exponent), which is
 * bash's for every expression that divides once.
 */
import type { Patch } from "./patch.ts";

// Hand-written: the messages are bash's own text, built from its expression and token.
const helpers = `
function __cbArithTok(text, message) {
  if (message === "division by 0") {
    const ops = [...text.matchAll(/[/%](?!=)|[/%]=/g)].map((m) => m.index + m[0].length);
    if (ops.length === 0) return undefined;
    const at = ops.find((i) => /^\\s*0(?![0-9xX#])/.test(text.slice(i))) ?? ops[ops.length - 1];
    return text.slice(at).replace(/^\\s+/, "");
  }
  if (message === "exponent less than 0") {
    const at = text.indexOf("**");
    if (at < 0) return undefined;
    const m = /^\\s*[-+]*\\s*([A-Za-z0-9_#@]+|\\S)(\\s*)([\\s\\S]*)$/.exec(text.slice(at + 2));
    if (!m) return undefined;
    return m[3] !== "" ? m[3] : m[1] + m[2];
  }
  return undefined;
}
function __cbArithText(text, err) {
  let message = String(err?.message ?? err);
  let tok = err?.__cbTok;
  const k = /^([\\s\\S]*?) \\(error token is "([\\s\\S]*)"\\)$/.exec(message);
  if (k) (message = k[1]), tok ??= k[2];
  const p = /^[\\s\\S]*?: (syntax error[\\s\\S]*|value too great for base|invalid arithmetic base|invalid integer constant)$/.exec(message);
  if (p) message = p[1];
  if (message === "syntax error: operand expected" && tok !== undefined) {
    const end = text.trimEnd();
    if (end.endsWith(tok)) tok = text.slice(end.length - tok.length);
  }
  tok ??= __cbArithTok(text, message);
  let expr = text.replace(/^\\s+/, "");
  if (message === "value too great for base") {
    expr = expr.trimEnd();
    tok ??= expr.split(/\\s+/).pop();
  }
  return tok === undefined ? \`\${expr}: \${message}\` : \`\${expr}: \${message} (error token is "\${tok}")\`;
}
function __cbArithFail(err, text) {
  if (!(err instanceof Ge) || err.__cbDone) return err;
  const e = new Ge(err.message, "", \`bash: \${__cbArithText(text, err)}\\n\`);
  e.__cbDone = !0;
  e.__cbAbandonLine = !0;
  return e;
}
`;

export const arithErrorMessages: Patch = {
  name: "arith-error-messages",
  why: 'Arithmetic errors name the expression and token (`1/0: division by 0 (error token is "0")`), and one in $(( )) abandons the rest of the line.',
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'case"ArithmeticExpansion":{let s=t.expression.originalText;if(s&&/\\$[a-zA-Z_][a-zA-Z0-9_]*(?![{[(])/.test(s)){let o=await _7(e,s),a=new be,l=Me(a,o);return String(await __cbTe64(e,l.expression,!0))}return String(await __cbTe64(e,t.expression.expression,!0))}',
      replace:
        'case"ArithmeticExpansion":{let s=t.expression.originalText,__x=s;try{if(s&&/\\$[a-zA-Z_][a-zA-Z0-9_]*(?![{[(])/.test(s)){let o=await _7(e,s);__x=o;let a=new be,l=Me(a,o);return String(await __cbTe64(e,l.expression,!0))}return String(await __cbTe64(e,t.expression.expression,!0))}catch(E){throw __cbArithFail(E,__x??"")}}',
    },
    {
      find: "catch(n){return K(`bash: arithmetic expression: ${n.message}\n`)}",
      replace:
        'catch(n){if(n?.__cbDone)throw n;return K(n instanceof Ge?`bash: line ${this.ctx.state.currentLine}: ((: ${__cbArithText(`${t.expression.originalText??""} `,n)}\n`:`bash: arithmetic expression: ${n.message}\n`)}',
    },
    { find: "return K(`bash: let: ${s}: ${i.message}", replace: "return K(`bash: let: ${__cbArithText(s,i)}" },
    {
      find: 'if(o)return{type:"ArithmeticExpression",originalText:t,expression:{type:"ArithSyntaxError",errorToken:o,message:`${o}: syntax error: invalid arithmetic operator (error token is "${o}")`}}',
      replace:
        'if(o)return{type:"ArithmeticExpression",originalText:t,expression:{type:"ArithSyntaxError",errorToken:o,message:/^[A-Za-z0-9_$]/.test(o)?`syntax error in expression (error token is "${n.slice(i)}")`:`${o}: syntax error: invalid arithmetic operator (error token is "${o}")`}}',
    },
    // A line abandoned inside a function body, a group or a compound command's body goes on
    // being abandoned; a subshell ends with status 1 and its parent's line goes on.
    {
      find: "if(sa(d)||d instanceof Yt||d instanceof he)throw d.prependOutput(o.stdout,o.stderr),d;",
      replace:
        "if(sa(d)||d instanceof Yt||d instanceof he||d?.__cbAbandonLine)throw d.prependOutput(o.stdout,o.stderr),d;",
    },
    {
      find: "catch(s){if(sa(s)||s instanceof Yt||s instanceof he||s instanceof C||s instanceof hr)throw s.prependOutput(n.stdout,n.stderr),s;",
      replace:
        "catch(s){if(sa(s)||s instanceof Yt||s instanceof he||s instanceof C||s instanceof hr||s?.__cbAbandonLine)throw s.prependOutput(n.stdout,n.stderr),s;",
    },
    {
      find: "catch(a){if(a instanceof C)throw i.prependTo(a),a;return a instanceof hr||a instanceof Qt",
      replace:
        'catch(a){if(a instanceof C)throw i.prependTo(a),a;if(a?.__cbAbandonLine&&!(a instanceof he))return i.append("stdout",a.stdout),i.append("stderr",a.stderr),i.build(1);return a instanceof hr||a instanceof Qt',
    },
    {
      // An operand is missing where a token that cannot start one stands: bash's "operand expected".
      find: 'return{expr:{type:"ArithNumber",value:0},pos:s}}var Nl=',
      replace:
        'return s<t.length?{expr:{type:"ArithSyntaxError",errorToken:t.slice(s),message:`syntax error: operand expected (error token is "${t.slice(s)}")`},pos:t.length}:{expr:{type:"ArithNumber",value:0},pos:s}}var Nl=',
    },
  ],
  shows: [
    "echo before; echo $((1 / 0)); echo same line\necho next line $?",
    "echo $(( 5 % 0 ))\necho $(( 2 ** -1 ))\necho $(( 4 * (2 / 0) ))\necho $((1/0 + 5))\necho end",
    '(( 1/0 )); echo "rc=$?"; let \'a = 1/0\'; echo "rc=$?"; (( x = 1 + )); echo $?',
    "echo $(( 1 +* 2 )); echo x\necho $(( a b ))\necho $(( 08 ))\necho $(( () ))\necho $(( 1 + )); echo $(( ))",
    'f() { echo $((1/0)); echo in f; }; echo same\necho next\n( echo $((1/0)); echo in ); echo "after $?"',
    'x=$(echo $((2/0))); echo "[$x] $?"',
    "for i in 1 2; do echo $((i/0)); done; echo same\necho next",
  ],
};
