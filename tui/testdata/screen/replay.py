#!/usr/bin/env python3
"""replay.py OUT ENDS: writes OUT frame by frame (ENDS: where each ends),
waiting for a line on stdin before each frame."""
import sys, os
data = open(sys.argv[1], 'rb').read()
ends = [int(x) for x in open(sys.argv[2]).read().split()]
start = 0
for e in ends:
    sys.stdin.readline()
    os.write(1, data[start:e])
    start = e
sys.stdin.readline()
