#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds pir, and runs the flagship sample.
# Usage: scripts/setup.sh [BUILD_DIR]   (default: build)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$here/build}")

packages=(cmake ninja-build g++ pkg-config python3 tao-pegtl-dev libeigen3-dev libgtest-dev
          libbenchmark-dev libedit-dev libmimalloc-dev llvm-14-tools clang libclang-rt-14-dev libopenblas-dev libdnnl-dev tmux graphviz
          libopenmpi-dev openmpi-bin
          pybind11-dev python3-dev python3-numpy python3-pytest
          libprotobuf-dev protobuf-compiler libonnx-dev libonnx-testdata python3-onnx python3-torch python3-torchvision)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

cmake -S "$here" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build"
# `import pir, popxl` for Debian's python3: a .pth file naming the build's package folder.
if [ -d "$build/python/pkg" ] && [ -x /usr/bin/python3 ]; then
  site=$(/usr/bin/python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo mkdir -p "$site"
  echo "$build/python/pkg" | $sudo tee "$site/pir.pth" >/dev/null
  echo "setup: the Python modules pir and popxl are importable (from $build/python/pkg)"
fi
echo "setup: running samples/linear.pir"
"$build/repl/pir" run "$here/samples/linear.pir"
