#!/usr/bin/env python3
"""cells.py A B: compare two `tmux capture-pane -p -e` files cell by cell;
blank cells compare by background, reverse and underline only."""
import re, sys, unicodedata
SGR = re.compile(r'\x1b\[([0-9;:]*)m')
def parse(path):
    rows = []
    st = {}
    for line in open(path, encoding='utf-8', errors='replace').read().split('\n'):
        cells = []
        i = 0
        while i < len(line):
            m = SGR.match(line, i)
            if m:
                ps = m.group(1).split(';') if m.group(1) else ['0']
                j = 0
                while j < len(ps):
                    p = ps[j]
                    if p in ('', '0'): st = {}
                    elif p in ('38', '48', '58'):
                        if ps[j+1] == '5': st[p] = '5;' + ps[j+2]; j += 2
                        else: st[p] = ';'.join(ps[j+1:j+5]); j += 4
                    elif p == '39': st.pop('38', None)
                    elif p == '49': st.pop('48', None)
                    elif p in ('22', '23', '24', '25', '27', '28', '29'): st.pop({'22':'1','23':'3','24':'4','25':'5','27':'7','28':'8','29':'9'}[p], None); st.pop('2', None) if p == '22' else None
                    elif len(p) <= 2 and (p.isdigit() and (30 <= int(p) <= 37 or 90 <= int(p) <= 97)): st['38'] = p
                    elif len(p) <= 3 and p.isdigit() and (40 <= int(p) <= 47 or 100 <= int(p) <= 107): st['48'] = p
                    else: st[p] = True
                    j += 1
                i = m.end(); continue
            ch = line[i]; i += 1
            if unicodedata.combining(ch) or ch in '\u200d\ufe0f\ufe0e' and cells:
                cells[-1] = (cells[-1][0] + ch, cells[-1][1]); continue
            cells.append((ch, tuple(sorted(st.items()))))
        rows.append(cells)
    return rows
def norm(c):
    ch, st = c
    if ch == ' ':
        return (' ', tuple(kv for kv in st if kv[0] in ('48', '7', '4')))
    return c
a, b = parse(sys.argv[1]), parse(sys.argv[2])
bad = 0
for y in range(max(len(a), len(b))):
    ra = [norm(c) for c in (a[y] if y < len(a) else [])]
    rb = [norm(c) for c in (b[y] if y < len(b) else [])]
    while ra and ra[-1] == (' ', ()): ra.pop()
    while rb and rb[-1] == (' ', ()): rb.pop()
    if ra != rb:
        bad += 1
        x = next((k for k in range(min(len(ra), len(rb))) if ra[k] != rb[k]), min(len(ra), len(rb)))
        print(f"row {y} col {x}: {ra[x] if x < len(ra) else None} vs {rb[x] if x < len(rb) else None}")
        print("  A:", ''.join(c[0] for c in ra)); print("  B:", ''.join(c[0] for c in rb))
sys.exit(1 if bad else 0)
