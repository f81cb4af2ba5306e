/**
 * `ls -d` lists its operands, directories included, as plain names one after another, sorted,
 * with no blank lines: `ls -d d*` prints one name a line. just-bash put a
 * blank line between any two operands under -d (the ls-operands patch left -d alone).
 */
import type { Patch } from "./patch.ts";

export const lsDirectoryOperands: Patch = {
  name: "ls-directory-operands",
  why: "ls -d lists its operands sorted, one per line, with no blank lines between directories.",
  edits: [
    {
      find: 'let h="",m="",g=0,b=new Rt({limits:t.limits,signal:t.signal,executionScope:t.executionScope,site:"ls"});for(let w=0;w<p.length;w++){let y=p[w];if(w>0&&h&&(!p.__cbDirectories',
      replace:
        'f&&p.length>1&&p.sort((x,y)=>(x<y?-1:x>y?1:0)*(l?-1:1));let h="",m="",g=0,b=new Rt({limits:t.limits,signal:t.signal,executionScope:t.executionScope,site:"ls"});for(let w=0;w<p.length;w++){let y=p[w];if(w>0&&h&&!f&&(!p.__cbDirectories',
    },
  ],
  shows: ["mkdir -p d1 d2 d3; touch f; ls -d d3 d1 d2/ f; ls -d */; ls -dr d*"],
};
