# tutorial_listings.py PIR TUTORIAL_MD: every step of the tutorial whose listing
# is followed by an output block runs as shown: the listing, copied into a file
# of its own in an empty scratch folder, prints exactly that output. A listing
# that leaves something out says so with a `...` line and is not run.
import os
import re
import subprocess
import sys
import tempfile

pir, doc = sys.argv[1], sys.argv[2]
text = open(doc, encoding="utf-8").read()
failures, ran, elided = [], 0, 0
for section in re.split(r"^## ", text, flags=re.M)[1:]:
    title = section.splitlines()[0]
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```\n", section, flags=re.M | re.S)
    if len(blocks) < 2 or not re.match(r"\d+\.", title):
        continue
    program, expected = blocks[0], blocks[1]
    # An output block may start with the command that prints it.
    expected = re.sub(r"\A\$ pir run \S+\n", "", expected)
    if re.search(r"^\s*\.\.\.", program, flags=re.M) or "$ pir" in program:
        elided += 1
        continue
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "step.pir")
        open(path, "w", encoding="utf-8").write(program)
        r = subprocess.run([pir, "run", "step.pir"], cwd=scratch, capture_output=True, text=True)
    ran += 1
    if r.returncode != 0 or r.stdout != expected:
        failures.append(f"## {title}: exit {r.returncode}\n--- expected\n{expected}--- got\n{r.stdout}{r.stderr}")
print(f"{ran} listings run, {elided} marked as excerpts")
print("\n".join(failures) if failures else "all as shown")
