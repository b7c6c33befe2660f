import json,sys,math
def load(fns):
    d={}
    for fn in fns.split(','):
        for l in open(fn):
            r=json.loads(l); b=r.get('blind')
            if b: d[r['number']]=(1 if b['won'] else 0, b.get('cpu_seconds',0), b.get('face_down_left',0))
    return d
A=load(sys.argv[1]); B=load(sys.argv[2])
c=sorted(set(A)&set(B))
a=sum(A[n][0] for n in c); b=sum(B[n][0] for n in c)
oa=sum(1 for n in c if A[n][0] and not B[n][0]); ob=sum(1 for n in c if B[n][0] and not A[n][0])
m=oa+ob; k=min(oa,ob)
p=min(1,2*sum(math.comb(m,i) for i in range(k+1))/2**m) if m else 1
ca=sorted(A[n][1] for n in c); cb=sorted(B[n][1] for n in c)
fd=[A[n][2]-B[n][2] for n in c]; mfd=sum(fd)/len(fd); sd=(sum((x-mfd)**2 for x in fd)/(len(fd)-1))**.5
print(f"deals {len(c)}: A {a}, B {b}; only A {oa}, only B {ob}; sign test p={p:.3f}; CPU a game mean A {sum(ca)/len(c):.2f} s, B {sum(cb)/len(c):.2f} s; face down at end A-B {mfd:+.2f} ± {1.96*sd/len(fd)**.5:.2f}")
