# `pir help WORD` explains a keyword or session command of the language, from
# the table the grammar's keywords and docs/language.md §13 are generated from
# (grammar/keywords.def; ctest docs_keywords_current checks the docs).
# RUN: %pir help var | FileCheck %s --check-prefix=VAR
# VAR: var: statement (docs/language.md §5)
# VAR-EMPTY:
# VAR-NEXT: {{^}}  var %NAME : TYPE = INIT [{ATTRS}]
# VAR: replica_grouping = (stride, group_size)
# VAR: PopXL: `popxl.variable`.
#
# RUN: %pir help feed | FileCheck %s --check-prefix=FEED
# FEED: feed: session command (docs/language.md §11)
# FEED: feed $NAME = DATA
#
# RUN: %pir help autodiff | FileCheck %s --check-prefix=AUTODIFF
# AUTODIFF: autodiff: top-level item (docs/language.md §9)
# AUTODIFF: autodiff @fwd -> @fwd_grad [{grads_provided = [%y], grads_required = [%x, %W]}]
#
# RUN: %pir help ir | FileCheck %s --check-prefix=IR
# IR: ir: top-level item (docs/language.md §3)
#
# `run` is a command of pir and a session command: both.
# RUN: %pir help run | FileCheck %s --check-prefix=BOTH
# BOTH: usage: pir run FILE
# BOTH: run: session command (docs/language.md §11)
# BOTH: run [N]
#
# `repeat` is an op: its reference.
# RUN: %pir help repeat | FileCheck %s --check-prefix=REPEAT
# REPEAT: usage: %r = repeat
#
# An op that takes a grouping shows how one is written.
# RUN: %pir help replicated_all_gather | FileCheck %s --check-prefix=GROUP
# GROUP: group: (stride, group_size)  optional; absent: all replicas
#
# Every keyword the listing names has an entry.
# RUN: %python %S/Inputs/help_every_keyword.py %pir | FileCheck %s --check-prefix=EVERY
# EVERY: 26 keywords
# EVERY-NEXT: all explained
#
# A misspelt topic gets a suggestion among commands, keywords and ops.
# RUN: not %pir help autodif 2>&1 | FileCheck %s --check-prefix=TYPO
# TYPO: pir: error: unknown command, keyword or op 'autodif'; did you mean 'autodiff'?
# RUN: %pir help keywords --markdown | FileCheck %s --check-prefix=MD
# MD: | keyword | kind | form | meaning | see |
# MD: | `save` | session command |
