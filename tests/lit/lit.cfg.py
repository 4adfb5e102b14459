# -*- Python -*-
# lit configuration of pir's golden tests (tools.md §6). Shared: samples/lit.cfg.py
# sets config.name and loads this file.
#
# RUN lines may use:
#   %pir       the built pir executable (also on PATH as `pir`)
#   %python    the Python running lit (for helper scripts in Inputs/)
#   FileCheck  LLVM's FileCheck;  not  LLVM's `not` (inverts the exit status)
#   %s %S %t   lit's own: this file, its directory, a temporary path
import os
import sys

import lit.formats

if not config.name or config.name == '<unnamed>':
    config.name = 'pir'
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = ['.pir']
# Helper inputs that are not tests themselves live in `Inputs/` directories.
config.excludes = ['Inputs', 'lit.cfg.py', 'CMakeLists.txt']

site_config = lit_config.params.get('pir_site_config')
if not site_config:
    lit_config.fatal('run through CTest, or pass --param pir_site_config=BUILD/tests/lit.site.cfg.py')
lit_config.load_config(config, site_config)

# Outputs (%t) go under the build tree, one directory per suite.
config.test_exec_root = os.path.join(config.pir_obj_root, 'tests', 'lit-output', config.name)

# Sanitizer builds reserve terabytes of address space: tests that cap it say
# `UNSUPPORTED: asan`.
if str(getattr(config, 'pir_sanitize', '')).upper() in ('ON', '1', 'TRUE', 'YES'):
    config.available_features.add('asan')

pir_dir = os.path.dirname(config.pir_bin)
config.environment['PATH'] = os.pathsep.join(
    [pir_dir, config.llvm_tools_dir, config.environment.get('PATH', os.environ.get('PATH', ''))])
# Keep diagnostics and number formatting independent of the caller's locale.
config.environment['LC_ALL'] = 'C'

# Word-bounded so that e.g. `--check-prefix=not` is left alone.
config.substitutions.append(('%pir\\b', config.pir_bin))
config.substitutions.append(('%python\\b', sys.executable))
config.substitutions.append(('(?<![\\w/.-])FileCheck(?![\\w.-])', config.filecheck))
config.substitutions.append(('(?<![\\w/.=-])not(?=\\s)', os.path.join(config.llvm_tools_dir, 'not')))
