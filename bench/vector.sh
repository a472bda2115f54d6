#!/usr/bin/env bash
# bench/vector.sh — staged loops against the same loops element by element,
# in one run: Airfoil seq's generated C built four ways (the default -O3,
# -march=native, -march=native -mprefer-vector-width=512, -mavx2 -mfma),
# the default
# build also run with LOOM_AVX512=0 (airfoil_seq@avx0: never in its
# AVX-512 twins, which it runs by default where the CPU has AVX-512), each run with
# LOOM_VECTOR=0 (element by element) and LOOM_VECTOR=1 (staged: lanes or
# gathered rows) by turns, BENCH_REPEAT rounds (default 3); per loop, the
# best time of each and their ratio (above 1: staging is faster); then
# what each build's tuner chose on its own (LOOM_VECTOR unset, LOOM_DIAG's
# lines) and its main-loop time against the best forced one.
#
#   bench/vector.sh MESH ITERS AIRFOIL_BIN_DIR
#
# A measuring tool, not a test: it fails only when a program does, or
# when a run's final q differs from the first run's (staging never
# changes a bit).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: ${0##*/} MESH ITERS AIRFOIL_BIN_DIR" >&2; exit 2; }
mesh=$1 iters=$2 bin=$3
rounds=${BENCH_REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run BUILD MODE ROUND: LOOM_DIAG's table into $tmp; the final q must be
# the first run's, byte for byte.
run() {
  local b=$1 mode=$2 r=$3 avx=
  [ "${b#*@}" = avx0 ] && avx=0
  env LOOM_DIAG=1 ${mode:+LOOM_VECTOR=$mode} ${avx:+LOOM_AVX512=$avx} "$bin/${b%@*}" "$mesh" "$iters" "$tmp/q.bin" \
    >/dev/null 2>"$tmp/$b.$mode.$r.err" ||
    { echo "${0##*/}: $b (LOOM_VECTOR=$mode) failed:" >&2; cat "$tmp/$b.$mode.$r.err" >&2; exit 1; }
  [ -f "$tmp/q0.bin" ] || mv "$tmp/q.bin" "$tmp/q0.bin"
  [ ! -f "$tmp/q.bin" ] || cmp -s "$tmp/q.bin" "$tmp/q0.bin" ||
    { echo "${0##*/}: $b (LOOM_VECTOR=$mode): final q differs from the first run's" >&2; exit 1; }
}

builds="airfoil_seq airfoil_seq@avx0 airfoil_native airfoil_native512 airfoil_avx2"
for r in $(seq 1 "$rounds"); do
  for b in $builds; do
    for mode in 0 1; do run "$b" "$mode" "$r"; done
  done
done

# seconds per loop name (rows of one name summed) of one run's table
loops() {
  sed -n '/^loop /,/^total /p' "$1" | awk '
    NR > 1 && $1 != "total" {
      name = $1; for (i = 2; i <= NF - 7; i++) name = name " " $i
      s[name] += $(NF - 5); if (!(name in order)) { order[name] = ++n; names[n] = name }
    }
    END { for (i = 1; i <= n; i++) printf "%s\t%.4f\n", names[i], s[names[i]] }'
}

echo "staged (LOOM_VECTOR=1) against element by element (LOOM_VECTOR=0), $iters iterations, best of $rounds:"
printf "  %-18s %-52s %10s %10s %8s\n" build loop "elem s" "staged s" speedup
for b in $builds; do
  for f in "$tmp/$b".[01].*.err; do
    mode=${f#"$tmp/$b."}; mode=${mode%%.*}
    loops "$f" | sed "s/^/$mode\t/"
  done | awk -F'\t' -v b="$b" '
    { k = $2; if (!(k in seen)) { seen[k] = ++n; name[n] = k }
      if (!((k, $1) in best) || $3 < best[k, $1]) best[k, $1] = $3 }
    END { for (i = 1; i <= n; i++) { k = name[i]
            printf "  %-18s %-52s %10.4f %10.4f %7.2fx\n", b, k, best[k, 0], best[k, 1],
                   (best[k, 1] > 0 ? best[k, 0] / best[k, 1] : 0) } }'
done

echo "each build on its own (LOOM_VECTOR unset): the tuner's choices, main loop against the forced runs"
for b in $builds; do
  run "$b" "" 1
  echo "  $b:"
  grep '^loom: .*(best of' "$tmp/$b..1.err" | sed 's/^loom: /    /'
  awk '/main loop wall time/ { print "    main loop " $(NF - 1) " s (tuned)" }' "$tmp/$b..1.err"
  for mode in 0 1; do
    awk '/main loop wall time/ { print $(NF - 1) }' "$tmp/$b.$mode".*.err | sort -g | head -1 |
      awk -v m="$mode" '{ printf "    main loop %s s (LOOM_VECTOR=%s, best of the rounds)\n", $1, m }'
  done
done
