# -*- Python -*-
# The tutorial's steps are golden tests too; the configuration is the one of tests/lit.
import os

config.name = 'pir-tutorial'
lit_config.load_config(
    config, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, 'tests', 'lit', 'lit.cfg.py'))
