# -*- Python -*-
# The samples are golden tests too; the configuration is the one of tests/lit.
import os

config.name = 'pir-samples'
lit_config.load_config(
    config, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, 'tests', 'lit', 'lit.cfg.py'))
