import type { UserConfig } from "vitest/config";
export function vitestPreset(options?: { testTimeout?: number }): UserConfig;
