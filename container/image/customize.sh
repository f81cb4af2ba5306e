#!/bin/sh
# Makes a Debian root directory into the box's read-only root: `customize.sh ROOT`.
#
# One script for both images: container/image/build.ts runs it as mmdebstrap's
# --customize-hook (ROOT is the new tree), and container/Dockerfile runs it on
# /opt/cubicle/rootfs after copying the box stage there. It only adds small files and
# removes caches, so running it twice changes nothing.
set -eu
root="$1"
[ -d "$root/etc" ] || { echo "customize.sh: $root is not a root directory" >&2; exit 2; }

# What the build's processes left in /run goes (mmdebstrap's own clean-up of /run is skipped
# so that the mount point below stays); /run/lock stays, /var/lock points to it.
find "$root/run" -mindepth 1 -maxdepth 1 ! -name lock ! -name cubicle -exec rm -rf {} +

# Mount points. The root is bound read-only, and bubblewrap cannot create a directory in
# it, so everything the sandbox mounts over must exist already (container/src/sandbox).
mkdir -p "$root/workspace" "$root/home/user" "$root/tmp" "$root/run/cubicle" "$root/proc" "$root/dev"
chmod 1777 "$root/tmp"
chmod 0755 "$root" "$root/workspace" "$root/home/user" "$root/run/cubicle"

# The one user commands run as (uid 1000, as on a developer's machine), so `id`, `whoami`,
# `ls -l`, ssh and git find a name and a home for it.
grep -q '^user:' "$root/etc/passwd" || echo 'user:x:1000:1000:user:/home/user:/bin/bash' >>"$root/etc/passwd"
grep -q '^user:' "$root/etc/group" || echo 'user:x:1000:' >>"$root/etc/group"
if [ -f "$root/etc/shadow" ] && ! grep -q '^user:' "$root/etc/shadow"; then
  echo 'user:*:19000:0:99999:7:::' >>"$root/etc/shadow"
fi

# Names that resolve without DNS: the box has its own network namespace with a loopback,
# and `cubicle` is the hostname the sandbox sets. Each file is removed before it is written:
# were it a symlink with an absolute target, writing through it would write the host's file.
rm -f "$root/etc/hosts" "$root/etc/hostname" "$root/etc/resolv.conf"
cat >"$root/etc/hosts" <<'HOSTS'
127.0.0.1	localhost
127.0.1.1	cubicle
::1	localhost ip6-localhost ip6-loopback
HOSTS
echo cubicle >"$root/etc/hostname"
# mmdebstrap copies the build machine's resolver in. The box has no route to it (its
# traffic leaves through the egress proxy, which resolves names itself), and the file must
# still exist so that a sandbox can bind another one over it in the read-only root.
echo '# No resolver: the box reaches the network only through its egress proxy.' >"$root/etc/resolv.conf"

# Nothing installs packages into a read-only root, so apt's indexes and downloaded
# archives are dead weight; so are the build's logs, which name the build machine.
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/cache/apt/archives/*.deb
rm -rf "$root"/var/log/apt/* "$root"/var/log/dpkg.log "$root"/var/log/alternatives.log "$root"/var/cache/debconf/*-old
