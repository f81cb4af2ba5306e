#!/bin/sh
set -e
cd "$(dirname "$0")"
gcc -O2 -Wall -Wextra -o ptfs ptfs*.c $(pkg-config --cflags --libs fuse3) -lpthread -Wl,--export-dynamic-symbol=writev
