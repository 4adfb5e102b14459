# help_every_keyword.py PIR: `pir help WORD` explains every keyword `pir help
# keywords` lists (exit 0, the entry names the word, its kind and section), and
# `pir help WORD` of a word that is a command too (run) shows both.
import subprocess
import sys

pir = sys.argv[1]
listing = subprocess.run([pir, "help", "keywords"], capture_output=True, text=True, check=True).stdout
words = [line.split()[0] for line in listing.splitlines() if line.startswith("  ")]
failures = []
for word in words:
    r = subprocess.run([pir, "help", word], capture_output=True, text=True)
    if r.returncode != 0 or f"{word}: " not in r.stdout or "docs/language.md §" not in r.stdout:
        failures.append(f"pir help {word}: exit {r.returncode}\n{r.stdout}{r.stderr}")
print(f"{len(words)} keywords")
print("\n".join(failures) if failures else "all explained")
