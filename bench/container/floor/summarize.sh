#!/bin/bash
# summarize.sh RESULT.tsv -> median ms per scenario/target (reps>=1) and ratios vs disk, tmpfs
awk -F'\t' '$3>=1 {k=$1"\t"$2; v[k]=v[k]" "$4; if(!($1 in so)){so[$1]=++ns; sn[ns]=$1} if(!($2 in to)){to[$2]=++nt; tn[nt]=$2}}
function med(s,  a,n,i,j,t){n=split(s,a," "); for(i=1;i<=n;i++)for(j=i+1;j<=n;j++)if(a[j]+0<a[i]+0){t=a[i];a[i]=a[j];a[j]=t} return (n%2)?a[(n+1)/2]:(a[n/2]+a[n/2+1])/2}
END{ printf "%-12s","scenario"; for(j=1;j<=nt;j++) printf "%10s",tn[j]; printf "   | ratio /disk (/tmpfs) for fuse targets\n";
 for(i=1;i<=ns;i++){s=sn[i]; printf "%-12s",s; for(j=1;j<=nt;j++){m[j]=med(v[s"\t"tn[j]]); printf "%10.1f",m[j]} printf "   |";
  for(j=3;j<=nt;j++) printf " %s %.2f(%.1f)", tn[j], m[j]/m[1], m[j]/m[2]; printf "\n"}}' "$1"
