import type { Options } from "tsup";
export function tsupPreset(options: {
  entry: string[] | Record<string, string>;
  platform?: "neutral" | "node";
  banner?: Record<string, string>;
  dts?: boolean;
  clean?: boolean | string[];
}): Options;
