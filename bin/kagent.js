#!/usr/bin/env node
// Launcher: imports the built entry and nothing else.
import '../dist/cli.js';
