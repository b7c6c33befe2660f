# The descent of README.md, one weight at a time, on the trial build
# (weights-and-progress-trial.patch): python3 descent.py FIRST LAST LOOKAHEAD
import subprocess, sys, json, os

T = os.environ.get('TUNE', 'target/release/examples/tune_value')  # the trial build's example
FIRST, LAST, LOOK = sys.argv[1], sys.argv[2], sys.argv[3]
w = {1:-12,2:40,3:5,4:-3,5:6,6:40,7:-3,8:2,9:0,10:40,11:0,12:0,13:0}
order = [13,4,5,3,2,11,12,9,6,7,8,10]
cands = {13:[-10,-30,-60],4:[0,-8],5:[0,15],3:[10,2],2:[20,80],11:[10,30],12:[20,40],9:[3,-2],6:[20,80],7:[0,-8],8:[1,3],10:[20,80]}
cache = {}
def ev(w):
    key = ','.join(f'{k}={v}' for k,v in sorted(w.items()))
    if key in cache: return cache[key]
    env = dict(os.environ, SPIDER_W=key)
    r = subprocess.run([T, FIRST, LAST, LOOK], env=env, capture_output=True, text=True)
    p = r.stdout.split()
    open('games-'+key.replace(',','_')+'.txt','w').write(r.stderr)
    won, fd, runs = int(p[2]), float(p[4]), float(p[6])
    obj = fd - 2*runs
    cache[key] = (obj, won, fd, runs)
    print(json.dumps({'w':key,'obj':round(obj,3),'won':won,'fd':fd,'runs':runs}), flush=True)
    return cache[key]
best = ev(w)
for i in order:
    for c in cands[i]:
        t = dict(w); t[i] = c
        r = ev(t)
        if r[0] < best[0] - 0.3:
            best, w = r, t
            print('ACCEPT', i, c, best, flush=True)
print('FINAL', w, best, flush=True)
