import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DriverManifest, ManifestError, RecordParser } from './driver.types';
import { validateDriverManifest, type DriverManifestCheck } from './manifest.validator';
import { createParser } from './parsers/record-formats';

/** The drivers shipped with the service (`drivers/` at the project root). */
export const BUILTIN_DRIVERS_DIR = resolve(__dirname, '..', '..', 'drivers');

export interface LoadedDriver {
  /** The name of the driver's directory. */
  name: string;
  source: 'builtin' | 'external';
  path: string;
  manifest: DriverManifest;
  /**
   * The file import (the upload, `npm run asistencia:import`) takes it: a `file` driver whose
   * record format is usable. A push (`http`) driver reads what its clocks send and a `tcp` one
   * its own protocol: neither imports a file, so neither is importable.
   */
  importable: boolean;
  /** A default format assumed, and why it cannot import (validateDriverManifest). */
  warnings: ManifestError[];
  /** Why it cannot read records (unknown format, bad settings); empty when it can. */
  problems: ManifestError[];
  /** The record parser of a file or http driver that can read records; a tcp driver has none. */
  parse?: RecordParser;
}

/** A file or http driver that can import: it has a record parser. */
export type ParsingDriver = LoadedDriver & { parse: RecordParser };

export const canParse = (driver: LoadedDriver): driver is ParsingDriver =>
  driver.parse !== undefined;

export interface SkippedDriver {
  name: string;
  path: string;
  errors: ManifestError[];
}

/**
 * Discovers drivers: each sub-directory of the built-in folder and of DEVICE_DRIVERS_PATH that
 * holds a manifest.json. A manifest is validated (validateDriverManifest); an invalid one is
 * skipped and reported with its violations, and never stops the service. A valid one is loaded
 * even when it cannot import (unknown format, bad settings): it is listed with its warnings,
 * and the import paths refuse it. An external driver with a built-in's name replaces it.
 */
export class DriverRegistry {
  private readonly drivers = new Map<string, LoadedDriver>();
  readonly skipped: SkippedDriver[] = [];

  static async load(
    externalDir?: string,
    builtinDir = BUILTIN_DRIVERS_DIR,
  ): Promise<DriverRegistry> {
    const registry = new DriverRegistry();
    await registry.scan(builtinDir, 'builtin');
    if (externalDir) await registry.scan(resolve(externalDir), 'external');
    return registry;
  }

  list(): LoadedDriver[] {
    return [...this.drivers.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): LoadedDriver | undefined {
    return this.drivers.get(name);
  }

  names(): string[] {
    return this.list().map((d) => d.name);
  }

  private async scan(dir: string, source: LoadedDriver['source']): Promise<void> {
    if (!existsSync(dir)) {
      this.skipped.push({
        name: dir,
        path: dir,
        errors: [{ path: '', message: 'the drivers directory does not exist' }],
      });
      return;
    }
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries
      .filter((e) => e.isDirectory())
      .sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name, 'manifest.json');
      if (!existsSync(path)) continue;
      const loaded = await readManifest(path);
      if (!loaded.valid) {
        this.skipped.push({ name: entry.name, path, errors: loaded.errors });
        continue;
      }
      const { manifest, importable, warnings, problems, recordFormat } = loaded;
      this.drivers.set(entry.name, {
        name: entry.name,
        source,
        path,
        manifest,
        importable: importable && manifest.transport === 'file',
        warnings,
        problems,
        parse: recordFormat ? createParser(recordFormat) : undefined,
      });
    }
  }
}

/** Reads a manifest file and validates it as the registry does. */
export async function readManifest(path: string): Promise<DriverManifestCheck> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    return {
      valid: false,
      errors: [{ path: '', message: `not readable JSON: ${(error as Error).message}` }],
      importable: false,
      warnings: [],
      problems: [],
    };
  }
  return validateDriverManifest(value);
}
