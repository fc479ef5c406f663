import { createRequire } from "node:module";
import { geoEqualEarth, geoPath } from "d3-geo";
import type { FeatureCollection, Geometry } from "geojson";
import isoCountries from "i18n-iso-countries";
import { feature } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";

/**
 * The dashboard's world map geometry: one standalone SVG document, the same for every request, that
 * the page references with `<use href="…/world-map.svg#IN">` (see components/charts/world-map.tsx).
 * Countries come from Natural Earth 1:110m (world-atlas's TopoJSON), projected with d3-geo's Equal
 * Earth projection fitted to the view box. Each country is a `<path id="XX">` with its ISO 3166-1
 * alpha-2 code (`land-<n>` for the few shapes without one: N. Cyprus, Somaliland, Kosovo), all inside
 * `<g id="land">`. No fill or stroke: the page's CSS gives them through the `<use>` element, whose
 * styles the referenced shapes inherit, so the map follows the theme.
 */

export const WORLD_MAP_VIEWBOX = "0 0 960 500";
const WIDTH = 960;
const HEIGHT = 500;
const PAD = 4;

type CountryProperties = { name?: string };

// Loaded with require: the atlas is a JSON file in node_modules, which an ES module of the server
// build cannot import without an import attribute.
const requireCjs = createRequire(import.meta.url);

let cached: string | null = null;

/** The geometry document (built on first use, then kept for the life of the process). */
export function worldMapSvg(): string {
  cached ??= buildWorldMapSvg();
  return cached;
}

function buildWorldMapSvg(): string {
  const topology = requireCjs("world-atlas/countries-110m.json") as Topology<{
    countries: GeometryCollection<CountryProperties>;
  }>;
  const countries = feature(topology, topology.objects.countries) as FeatureCollection<Geometry, CountryProperties>;
  const projection = geoEqualEarth().fitExtent(
    [
      [PAD, PAD],
      [WIDTH - PAD, HEIGHT - PAD],
    ],
    countries,
  );
  const path = geoPath(projection).digits(1);

  const used = new Set<string>();
  const paths: string[] = [];
  for (const [index, country] of countries.features.entries()) {
    const d = path(country);
    if (!d) continue;
    const alpha2 = country.id === undefined ? undefined : isoCountries.numericToAlpha2(String(country.id));
    const id = alpha2 && !used.has(alpha2) ? alpha2 : `land-${index}`;
    used.add(id);
    paths.push(`<path id="${id}" d="${d}"/>`);
  }

  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${WORLD_MAP_VIEWBOX}">`,
    `<g id="land">`,
    ...paths,
    `</g>`,
    `</svg>`,
    "",
  ].join("\n");
}
