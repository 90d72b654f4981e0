import { vitestPreset } from "@sched/tooling/vitest";
import { defineConfig } from "vitest/config";

export default defineConfig(vitestPreset());
