# Usage text and version.
# RUN: %pir --help | FileCheck %s --check-prefix=HELP
# HELP: usage: pir <command>
# HELP-DAG: run FILE
# HELP-DAG: check FILE
# HELP-DAG: opt FILE
# HELP-DAG: repl [FILE]
# HELP-DAG: disasm FILE
# RUN: %pir help opt | FileCheck %s --check-prefix=OPT
# RUN: %pir opt --help | FileCheck %s --check-prefix=OPT
# OPT: usage: pir opt FILE [--passes=LIST] [--print-after-each]{{.*}}[-o OUT]
# OPT: --print-after-each
# OPT: Passes:
# RUN: %pir help check | FileCheck %s --check-prefix=CHECKCMD
# CHECKCMD: usage: pir check FILE
# RUN: %pir --version | FileCheck %s --check-prefix=VERSION
# VERSION: {{^}}pir 0.1.0{{$}}
# RUN: not %pir help frobnicate 2>&1 | FileCheck %s --check-prefix=UNKNOWN
# UNKNOWN: pir: error: unknown command, keyword or op 'frobnicate'
