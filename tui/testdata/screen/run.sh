#!/bin/bash
# usage: run.sh BIN NAME W H ANSWER [env...]: streams ANSWER through the fake
# gateway into tern in tmux, captures the pane (-e) when it has finished,
# then after a forced full redraw (resize away and back), and compares the
# two cell by cell (cells.py).
BIN=$1 NAME=$2 W=$3 H=$4 ANS=$5; shift 5
PORT=$((20000 + RANDOM % 20000))
OUT=/tmp/a-screen/out/$NAME; rm -rf $OUT; mkdir -p $OUT
FAKE_ANSWER=$ANS /tmp/fakegw/fakegw $PORT 2>/dev/null & GW=$!
HOME_=/tmp/a-screen/home-$NAME; rm -rf $HOME_; mkdir -p $HOME_
tmux kill-session -t $NAME 2>/dev/null
tmux new-session -d -s $NAME -x $W -y $H -c /tmp/a-screen/repo \
  "env TERN_HOME=$HOME_ LLM_BASE_URL=http://127.0.0.1:$PORT/v1 LLM_API_KEY=x $* $BIN; sleep 100"
sleep 1.5
tmux send-keys -t $NAME "show me" Enter
sleep ${WAIT:-5}
tmux capture-pane -t $NAME -p -e > $OUT/stream.txt
tmux resize-window -t $NAME -x $((W-1)) -y $((H-1)); sleep 0.5
tmux resize-window -t $NAME -x $W -y $H; sleep 0.8
tmux capture-pane -t $NAME -p -e > $OUT/redraw.txt
tmux kill-session -t $NAME; kill $GW
if python3 /tmp/a-screen/cells.py $OUT/stream.txt $OUT/redraw.txt > $OUT/diff.txt; then echo "$NAME: same"; else echo "$NAME: DIFFERS"; head -${DL:-12} $OUT/diff.txt; fi
