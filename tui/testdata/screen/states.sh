#!/bin/bash
# usage: states.sh BIN NAME W H: the offline provider's "long" answer in tmux,
# with the user's habits mid-stream (typing a multi-line draft, PgUp/PgDn,
# wheel, resizes, ctrl+t, a picker), then the pane after the stream compared
# cell by cell with a forced full redraw (resize away and back).
BIN=$1 NAME=$2 W=$3 H=$4
OUT=/tmp/a-screen/out/$NAME; rm -rf $OUT; mkdir -p $OUT
HOME_=/tmp/a-screen/home-$NAME; rm -rf $HOME_; mkdir -p $HOME_
tmux kill-session -t $NAME 2>/dev/null
tmux new-session -d -s $NAME -x $W -y $H -c /tmp/a-screen/repo "env -u LLM_API_KEY TERN_HOME=$HOME_ $BIN; sleep 100"
sleep 1.5
k() { tmux send-keys -t $NAME "$@"; sleep 0.${D:-15}; }
k long Enter; sleep 0.5
k -l "a draft"; k M-Enter; k -l "second line"; k M-Enter; k -l "third"
k PageUp; k PageUp; k PageDown; k PageDown
k BSpace BSpace BSpace BSpace BSpace; k BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace BSpace
tmux resize-window -t $NAME -x 80 -y 24; sleep 0.4
k -l "@"; k Escape
tmux resize-window -t $NAME -x 60 -y 15; sleep 0.4
k -l "/"; k Escape
tmux resize-window -t $NAME -x $W -y $H; sleep 0.4
k C-t; k C-t
sleep ${WAIT:-8}
tmux capture-pane -t $NAME -p -e > $OUT/stream.txt
tmux resize-window -t $NAME -x $((W-1)) -y $((H-1)); sleep 0.5
tmux resize-window -t $NAME -x $W -y $H; sleep 0.8
tmux capture-pane -t $NAME -p -e > $OUT/redraw.txt
tmux kill-session -t $NAME
if python3 /tmp/a-screen/cells.py $OUT/stream.txt $OUT/redraw.txt > $OUT/diff.txt; then echo "$NAME: same"; else echo "$NAME: DIFFERS"; head -${DL:-12} $OUT/diff.txt; fi
