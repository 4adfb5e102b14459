// The device layer's public surface: the model (what the device is: tiles,
// memory, per-op costs; device/model.h), the simulator (the cycle estimate over
// a program; device/simulator.h) and the reports (device/report.h).
#pragma once
#include "device/model.h"
#include "device/report.h"
#include "device/simulator.h"
