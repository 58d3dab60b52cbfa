// Wire shapes of an item's stock over time (docs/REORDER.md, "Stock over time"): per warehouse the
// quantity after each movement in a period, downsampled on the server so a chart never receives more
// than MAX_CHART_POINTS points per warehouse, however many movements the item has.
import { z } from 'zod';
import { API_BASE } from './api-paths.ts';
import { movementKindSchema } from './history-schemas.ts';

export const STOCK_CHART_PATH = `${API_BASE}/stock-history/chart/`;
export const MAX_CHART_POINTS = 400;
export const CHART_RANGES = ['7d', '30d', '90d', 'all'] as const;
export type ChartRange = (typeof CHART_RANGES)[number];
export const CHART_RANGE_DAYS: Record<ChartRange, number | null> = { '7d': 7, '30d': 30, '90d': 90, all: null };

export const stockChartQuerySchema = z
  .object({
    barcode: z.string().min(1).describe('The barcode whose stock is drawn.'),
    range: z.enum(CHART_RANGES).default('30d').describe('The last 7, 30 or 90 days, or all.'),
  })
  .meta({ id: 'StockChartQuery' });
export type StockChartQuery = z.infer<typeof stockChartQuerySchema>;

export const chartPointSchema = z
  .strictObject({
    at: z.string().describe('When the movement happened (its timestamp), ISO 8601.'),
    quantity: z.number().int().describe('The quantity after it.'),
    kind: movementKindSchema,
    value: z.number().int(),
    source: z.string(),
    reason: z.string().nullable(),
    reference: z.string().nullable(),
  })
  .meta({ id: 'ChartPoint' });
export type ChartPoint = z.infer<typeof chartPointSchema>;

export const stockChartSchema = z
  .strictObject({
    barcode: z.string(),
    since: z.string().nullable().describe('Start of the period; null for all.'),
    series: z.array(
      z.strictObject({
        warehouse: z.number().int().nullable(),
        warehouse_name: z.string().nullable(),
        start: z.number().int().nullable().describe('The quantity when the period began; null when it had none.'),
        movements: z.number().int().describe('Movements in the period.'),
        downsampled: z.boolean().describe(`True when the period held more than ${MAX_CHART_POINTS} movements.`),
        points: z.array(chartPointSchema),
      }),
    ),
  })
  .meta({ id: 'StockChart' });
export type StockChart = z.infer<typeof stockChartSchema>;
