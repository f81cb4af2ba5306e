/**
 * `BASH_VERSINFO` is the readonly array of the version's parts, matching `BASH_VERSION`
 * (just-bash's 5.1.0(1)-release): scripts guard features with `(( BASH_VERSINFO[0] >= 4 ))`,
 * and with the array missing, just-bash read 0 and such scripts stopped as if bash were 3.
 */
import type { Patch } from "./patch.ts";

export const bashVersinfo: Patch = {
  name: "bash-versinfo",
  why: "BASH_VERSINFO is a readonly array of the version's parts, so (( BASH_VERSINFO[0] >= 4 )) holds.",
  edits: [
    {
      find: "this.state={env:s,arrays:new Map,cwd:r,",
      replace:
        'this.state={env:s,arrays:new Map([["BASH_VERSINFO",{kind:"indexed",elements:new Map([...T6.match(/^(\\d+)\\.(\\d+)\\.(\\d+)\\((\\d+)\\)-(\\w+)$/).slice(1),"x86_64-pc-linux-gnu"].map((v,i)=>[String(i),v]))}]]),cwd:r,',
    },
    {
      find: 'readonlyVars:new Set(["SHELLOPTS","BASHOPTS"]),hashTable:new Map}',
      replace: 'readonlyVars:new Set(["SHELLOPTS","BASHOPTS","BASH_VERSINFO"]),hashTable:new Map}',
    },
  ],
  shows: [
    '(( BASH_VERSINFO[0] >= 4 )) && echo modern; echo ${#BASH_VERSINFO[@]}; [[ ${BASH_VERSINFO[4]} == release ]] && echo release; [[ $BASH_VERSION == "${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}"* ]] && echo consistent',
  ],
};
