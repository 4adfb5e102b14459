# run_in_scratch.py PIR SOURCE_ROOT: runs every sample (samples/*.pir) and every
# tutorial step (docs/tutorial/*.pir) with `pir run`, each from an empty working
# directory, on a copy of samples/ and docs/ (the source tree is never
# written), and fails if a run added or changed a file in that copy: a program
# run in place must not write next to itself.
import os
import shutil
import subprocess
import sys
import tempfile

pir, root = sys.argv[1], sys.argv[2]


def snapshot(tree):
    files = {}
    for folder, _, names in os.walk(tree):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, tree)] = f.read()
    return files


with tempfile.TemporaryDirectory() as scratch:
    copy = os.path.join(scratch, "tree")
    for part in ("samples", "docs"):
        shutil.copytree(os.path.join(root, part), os.path.join(copy, part))
    before = snapshot(copy)
    programs = sorted(os.path.join(copy, "samples", n) for n in os.listdir(os.path.join(copy, "samples")) if n.endswith(".pir"))
    programs += sorted(os.path.join(copy, "docs", "tutorial", n)
                       for n in os.listdir(os.path.join(copy, "docs", "tutorial")) if n.endswith(".pir"))
    for program in programs:
        cwd = tempfile.mkdtemp(dir=scratch)
        subprocess.run([pir, "run", program], cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=300)
    after = snapshot(copy)
    changed = sorted(name for name in set(before) | set(after) if before.get(name) != after.get(name))
    print(f"{len(programs)} programs run")
    print("\n".join("written: " + name for name in changed) if changed else "nothing written next to them")
