#!/usr/bin/env bash
# The library's layers reach each other's private parts only through the
# *_shared.h headers: a layer's own private headers (its struct, its
# kernels) are included by that layer alone, and arrays/, the base, by
# nothing above it. usage: check_layers.sh SOURCE_DIR
set -uo pipefail
cd "$1"
# header -> the layer that owns it
declare -A owner=(
  [csr_impl.h]=sparse [kernels/csr.h]=sparse [cuda/csr_cuda.h]=sparse
  [stencil_impl.h]=stencils [kernels/stencil.h]=stencils [cuda/stencil_cuda.h]=stencils
  [solver_impl.h]=solvers [part_impl.h]=partition)
# which layers each may be included from (besides its owner)
declare -A also=([part_impl.h]="sparse")
bad=0
for f in arrays/*.c arrays/cuda/*.cu partition/*.c sparse/*.c sparse/cuda/*.cu stencils/*.c stencils/cuda/*.cu \
         solvers/*.c internal/*.h internal/*/*.h; do
  [ -e "$f" ] || continue
  layer=${f%%/*}
  while read -r h; do
    o=${owner[$h]:-}
    [ -n "$o" ] || continue
    if [ "$layer" = internal ]; then  # a private header may include only its own layer's
      base=$(basename "$f")
      fo=${owner[${f#internal/}]:-${owner[$base]:-}}
      [ "$fo" = "$o" ] && continue
    else
      [ "$layer" = "$o" ] && continue
      [[ " ${also[$h]:-} " == *" $layer "* ]] && continue
    fi
    echo "$f includes $h, which belongs to $o/"
    bad=1
  done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f")
done
[ "$bad" = 0 ] && echo "layers: no layer includes another's private headers"
exit $bad
