#!/bin/bash
# usage: replay.sh DUMPBASE W H: replays DUMPBASE.rows, DUMPBASE.flush and
# DUMPBASE.paint (each view painted whole on a cleared screen) from
# TestDumpHostileStreams in three tmux panes of W x H frame by frame, and
# compares rows and flush with the paint cell by cell after every frame.
B=$1 W=$2 H=$3; N=$(basename $B)
OUT=/tmp/a-screen/replay/$N; rm -rf $OUT; mkdir -p $OUT
for s in rows flush paint; do
  tmux kill-session -t r-$N-$s 2>/dev/null
  tmux new-session -d -s r-$N-$s -x $W -y $H "stty -echo; python3 /tmp/a-screen/replay.py $B.$s $B.$s.ends; sleep 30"
done
sleep 0.5
n=$(wc -l < $B.rows.ends); badr=0; badf=0
for i in $(seq 1 $n); do
  for s in rows flush paint; do tmux send-keys -t r-$N-$s Enter; done
  sleep 0.08
  for s in rows flush paint; do tmux capture-pane -t r-$N-$s -p -e > $OUT/$i.$s; done
  for s in rows flush; do
    if ! python3 /tmp/a-screen/cells.py $OUT/$i.$s $OUT/$i.paint > $OUT/$i.$s.diff; then
      [ $s = rows ] && badr=$((badr+1)) || badf=$((badf+1))
      [ "$V" ] && { echo "$N frame $i $s differs from the paint:"; head -6 $OUT/$i.$s.diff; }
    fi
  done
done
for s in rows flush paint; do tmux kill-session -t r-$N-$s; done
for i in $(seq 1 $n); do [ -s $OUT/$i.rows.diff ] && [ ! -s $OUT/$i.flush.diff ] && echo "$N frame $i: only by rows differs"; done
echo "$N: of $n frames, by rows $badr differ from a fresh paint, by the flush $badf"
