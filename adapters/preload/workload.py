# SPDX-License-Identifier: MIT
# workload.py - what the interposer test runs as `python3 -c "$(cat workload.py)"`:
# dicts, lists, sets and strings built and dropped, JSON out and back, regular
# expressions, and four threads doing the same at once. Prints only results
# that do not depend on the allocator (no ids, no addresses, no timings).
import hashlib
import json
import re
import threading

def records(n, seed):
    out = []
    for i in range(n):
        key = "item-%d-%d" % (seed, i)
        out.append({
            "key": key,
            "n": i * seed,
            "tags": [key[:4], str(i % 17), "x" * (i % 23)],
            "ratio": i / (seed + 1),
            "nested": {"even": i % 2 == 0, "list": list(range(i % 11))},
        })
    return out

def churn(seed, rounds):
    digest = hashlib.sha256()
    for r in range(rounds):
        data = records(300 + r * 7, seed + r)
        text = json.dumps(data, sort_keys=True)
        back = json.loads(text)
        assert back == data
        words = re.findall(r"item-(\d+)-(\d+)", text)
        seen = set(a + ":" + b for a, b in words)
        joined = "|".join(sorted(seen))
        digest.update(joined.encode())
        digest.update(text.encode())
        table = {w: len(w) for w in joined.split("|")}
        digest.update(str(sum(table.values())).encode())
        del data, back, words, seen, table
    return digest.hexdigest()

results = {}
def worker(t):
    results[t] = churn(1000 * (t + 1), 12)

threads = [threading.Thread(target=worker, args=(t,)) for t in range(4)]
for th in threads:
    th.start()
main = churn(7, 20)
for th in threads:
    th.join()
big = [str(i) * (i % 50) for i in range(20000)]
print("main", main)
for t in sorted(results):
    print("thread", t, results[t])
print("strings", len(big), sum(map(len, big)), hashlib.sha256("".join(big).encode()).hexdigest())
