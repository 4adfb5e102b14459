# Every listing of docs/tutorial.md runs as shown, from an empty folder, and
# prints the output block under it; a listing that omits something marks it
# with a `...` line.
# RUN: %python %S/Inputs/tutorial_listings.py %pir %S/../../../docs/tutorial.md | FileCheck %s
# CHECK: 7 listings run, 2 marked as excerpts
# CHECK-NEXT: all as shown
