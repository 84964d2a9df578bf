#!/usr/bin/env bash
# The system packages yogar's tests need beyond the Rust toolchain and gcc: the 32-bit C
# headers for `gcc -m32 -E` (the frontend preprocesses ILP32 programs with them). Installs
# gcc-multilib with apt-get where it can; otherwise says what is missing and fails, so that
# `make test` stops here with one line instead of in the frontend tests.
set -euo pipefail
if echo '#include <stdlib.h>' | gcc -m32 -E -x c - >/dev/null 2>&1; then
  exit 0
fi
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  apt-get update -qq >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-multilib >/dev/null 2>&1
fi
if ! echo '#include <stdlib.h>' | gcc -m32 -E -x c - >/dev/null 2>&1; then
  echo "scripts/deps.sh: gcc -m32 finds no 32-bit C headers; install gcc-multilib (as root: apt-get install gcc-multilib)" >&2
  exit 1
fi
