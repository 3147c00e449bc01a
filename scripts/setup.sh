#!/bin/sh
# Installs what building pathvm needs and a fresh machine may lack: cmake
# (unicorn's C core is built with it) and pkg-config (unicorn probes it).
# valgrind is used by tests as a reference when present; qemu-user by the
# benchmark. Idempotent: does nothing when everything is there.
set -eu
missing=""
command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
command -v make >/dev/null 2>&1 || missing="$missing make"
if [ -n "$missing" ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO=sudo
    echo "setup: installing$missing"
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing >/dev/null
fi
