#!/usr/bin/env python3
"""
The npm registry this project is built against lacks some platform packages of
Biome and Tailwind's oxide (macOS, Windows, Android... builds). npm install then
leaves them out of package-lock.json, and `npm ci` refuses the lock as out of
sync. This adds an entry for each missing optional platform package, with its
os/cpu, so `npm ci` skips it on Linux without ever fetching it.
Run after `npm install`: python3 scripts/complete-lockfile.py
"""
import json, re

LOCK = "package-lock.json"
lock = json.load(open(LOCK))
packages = lock["packages"]
added = []
for path, meta in list(packages.items()):
    for name, spec in (meta.get("optionalDependencies") or {}).items():
        key = f"node_modules/{name}"
        if key in packages:
            continue
        suffix = name.split("/")[-1]
        os_ = next((o for o in ["android", "darwin", "freebsd", "linux", "win32", "openbsd", "sunos", "aix"] if o in suffix), None)
        cpu = next((c for c in ["arm64", "x64", "wasm32", "ia32", "arm", "riscv64", "s390x", "ppc64", "loong64"] if re.search(rf"-{c}(-|$)", suffix)), None)
        entry = {"version": re.sub(r"^[\^~=]", "", spec), "dev": bool(meta.get("dev")), "optional": True}
        if cpu:
            entry["cpu"] = [cpu]
        if os_:
            entry["os"] = [os_]
        if "musl" in suffix:
            entry["libc"] = ["musl"]
        packages[key] = entry
        added.append(f"{name}@{entry['version']}")
lock["packages"] = dict(sorted(packages.items(), key=lambda kv: (kv[0] != "", kv[0])))
json.dump(lock, open(LOCK, "w"), indent=2)
open(LOCK, "a").write("\n")
print(f"added {len(added)} platform entries" + (": " + ", ".join(added) if added else ""))
