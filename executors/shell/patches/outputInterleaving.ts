/**
 * Where a group's or function's stdout and stderr meet (`f |& cat`, `{ …; } 2>&1 | tee log`,
 * `f 2>&1`), the commands' writes come out in the order they were made: `f() { echo one;
 * echo two >&2; echo three; }; f |& cat` prints one, two, three. just-bash keeps a
 * command's two streams apart and joins them only at the redirection, so it printed all of
 * stdout first.
 *
 * The output builder (`hn`) now also records the order of what it receives, as [stream,
 * text] events, taking a nested result's events in place of its two strings; a result whose
 * events interleave carries them (`__cbEvents`). Where the streams are merged, the events
 * are used only if they still add up to the result's stdout and stderr exactly (anything
 * that rewrote the result since falls back to stdout then stderr), and only for text output. A
 * function left by `return` hands its body's order on with the return.
 * Within one simple command the order stays stdout then stderr, as the command hands both
 * back at once.
 */
import type { Patch } from "./patch.ts";

const helpers = `
function __cbEventsOf(r) {
  const ev = r?.__cbEvents;
  if (!ev) return null;
  let o = "", e = "";
  for (const [k, t] of ev) k === "stdout" ? (o += t) : (e += t);
  return o === r.stdout && e === r.stderr ? ev : null;
}
function __cbInterleaved(r) {
  const ev = __cbEventsOf(r);
  return ev ? ev.map((x) => x[1]).join("") : null;
}
function __cbMixed(ev) {
  let err = false;
  for (const [k, t] of ev ?? []) {
    if (!t) continue;
    if (k === "stderr") err = true;
    else if (err) return true;
  }
  return false;
}
`;

export const outputInterleaving: Patch = {
  name: "output-interleaving",
  why: "Where a group's or function's stdout and stderr are merged (|&, 2>&1), their commands' writes keep their order.",
  edits: [
    { find: "var P3=Object.create;", replace: `${helpers}var P3=Object.create;` },
    {
      find: 'n&&(t==="stdout"?this.stdoutChunks:this.stderrChunks).push(n),',
      replace:
        'n&&(t==="stdout"?this.stdoutChunks:this.stderrChunks).push(n),n&&!this.__cbIn&&(this.__cbEv??=[]).push([t,n]),',
    },
    {
      find: "appendResult(t,n=t.stdout){",
      replace:
        'appendResult(t,n=t.stdout){let E=n===t.stdout?__cbEventsOf(t):null;this.__cbIn=!0;try{this.__cbOldAppendResult(t,n)}finally{this.__cbIn=!1}let V=this.__cbEv??=[];if(E)for(let x of E)V.push(x);else n&&V.push(["stdout",n]),t.stderr&&V.push(["stderr",t.stderr])}__cbOldAppendResult(t,n=t.stdout){',
    },
    {
      find: 'build(t,n){return{stdout:this.stdoutChunks.join(""),stderr:this.stderrChunks.join(""),exitCode:t,...n,',
      replace:
        'build(t,n){return{...(__cbMixed(this.__cbEv)?{__cbEvents:this.__cbEv}:{}),stdout:this.stdoutChunks.join(""),stderr:this.stderrChunks.join(""),exitCode:t,...n,',
    },
    // Loops and if/case bodies collect statements' output in another builder (\`ps\`), as
    // strings: there the order between statements is kept.
    {
      find: "ps=class{ctx;stdoutChunks=[];stderrChunks=[];totalBytes=0;constructor(t){this.ctx=t}append(t,n){",
      replace:
        'ps=class{ctx;stdoutChunks=[];stderrChunks=[];totalBytes=0;constructor(t){this.ctx=t}append(t,n){(this.__cbEv??=[]).push(["stdout",t],["stderr",n]);',
    },
    {
      find: "replace(t,n){this.stdoutChunks=[],this.stderrChunks=[],this.totalBytes=0,this.append(t,n)}",
      replace:
        "replace(t,n){this.__cbEv=[],this.stdoutChunks=[],this.stderrChunks=[],this.totalBytes=0,this.append(t,n)}",
    },
    {
      find: "build(t){let n=this.stdout,r=this.stderr;return{stdout:n,stderr:r,exitCode:t,",
      replace:
        "build(t){let n=this.stdout,r=this.stderr;return{...(__cbMixed(this.__cbEv)?{__cbEvents:this.__cbEv}:{}),stdout:n,stderr:r,exitCode:t,",
    },
    // A redirection that leaves the output as it was keeps its order.
    {
      find: "else t.internalOutputAccounting&&(w.internalOutputAccounting=t.internalOutputAccounting);return w}",
      replace:
        "else t.internalOutputAccounting&&(w.internalOutputAccounting=t.internalOutputAccounting);return t.__cbEvents&&w.stdout===t.stdout&&w.stderr===t.stderr&&(w.__cbEvents=t.__cbEvents),w}",
    },
    // A function left by \`return\`: the body's order goes with the return, the call's result.
    {
      find: "if(sa(d)||d instanceof Yt||d instanceof he||d?.__cbAbandonLine)throw d.prependOutput(o.stdout,o.stderr),d;",
      replace:
        "if(sa(d)||d instanceof Yt||d instanceof he||d?.__cbAbandonLine){let P=!d.stdout&&!d.stderr;throw d.prependOutput(o.stdout,o.stderr),P&&__cbMixed(o.__cbEv)&&(d.__cbEvents=o.__cbEv),d}",
    },
    {
      find: "p instanceof _t))return Q(p.stdout,p.stderr,p.exitCode);",
      replace:
        "p instanceof _t))return{...Q(p.stdout,p.stderr,p.exitCode),...(p.__cbEvents?{__cbEvents:p.__cbEvents}:{})};",
    },
    // a |& b
    {
      find: "t.pipeStderr?.[w]??!1?s=zr(R)+Dn(R.stderr):",
      replace: 't.pipeStderr?.[w]??!1?s=ah(R)!=="bytes"&&__cbEventsOf(R)?Dn(__cbInterleaved(R)):zr(R)+Dn(R.stderr):',
    },
    // 2>&1 to a file or descriptor, to the live stdout, and `>f 2>&1`.
    {
      find: "let A=t.__cbSeq?__cbSeqText(t,e):x+S;",
      replace:
        'let A=t.__cbSeq?__cbSeqText(t,e):d!=="binary"&&x===t.stdout&&S===t.stderr&&__cbEventsOf(t)?__cbInterleaved(t):x+S;',
    },
    {
      find: ':[[x,h,!0],[S,m,!1]])if(A!=="")switch(O.kind){',
      replace:
        ':(h.kind==="live-stdout"&&m.kind==="live-stdout"||h.kind==="file"&&(m.kind==="file"?m.path:m.source?.entry?.path)===h.path)&&d!=="binary"&&x===t.stdout&&S===t.stderr&&__cbEventsOf(t)?[[__cbInterleaved(t),h,!0]]:[[x,h,!0],[S,m,!1]])if(A!=="")switch(O.kind){',
    },
  ],
  shows: [
    "f() { echo one; echo two >&2; echo three; }; f |& cat",
    "{ echo a; echo b >&2; echo c; } 2>&1 | cat; g() { echo x; echo y >&2; echo z; }; g 2>&1 | tr a-z A-Z",
    'build() { echo compiling; echo "warning: unused" >&2; echo linking; return 1; }; build 2>&1 | cat',
    "h() { echo 1; echo 2 >&2; echo 3; }; h > out.txt 2>&1; cat out.txt; h 2>/dev/null; for i in 1 2; do echo o$i; echo e$i >&2; done 2>&1 | cat",
  ],
};
