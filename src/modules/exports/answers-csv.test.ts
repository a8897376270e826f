import { describe, expect, it } from 'vitest';
import { answerRow } from '../results/answer-row.fixture.ts';
import { answersCsv, csvRecord, neutralised, CSV_COLUMNS } from './answers-csv.ts';
import type { QuestionContext } from '../results/result-view.ts';

const choice: QuestionContext = { type: 'single_choice', labels: ['Penny', 'Pocket', 'Neither'], imageUrl: null, graded: false };

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  let out = '';
  for await (const chunk of stream) out += chunk.toString();
  return out;
}

describe('answers CSV', () => {
  it('neutralises exactly the cells a spreadsheet would run', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(neutralised(`${start}x`)).toBe(`'${start}x`);
    for (const kept of ['x=1', ' =1', "'=1", '', '1-2', 'Ünïcødé', 'पैसे']) expect(neutralised(kept)).toBe(kept);
  });

  it('writes a BOM, the header and CRLF records, quoting what needs it', async () => {
    const rows = [
      answerRow({ option: 0, optionLabel: 'Penny', reason: 'short, "quoted"\nsecond line', dwellMs: 7_420, simulated: true }),
      answerRow({ option: 1, optionLabel: 'Pocket', reason: '=1+1', pinned: true }),
    ];
    const csv = await text(await answersCsv(rows, choice));
    expect(csv.startsWith(`\ufeff${CSV_COLUMNS.join(',')}\r\n`)).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    // rows are newest first (as the result cache keeps them): the CSV is oldest first.
    expect(lines[1]).toContain(",Pocket,1,,,'=1+1,");
    expect(lines[1]).toMatch(/,true,false,,$/);
    expect(lines[2]).toContain(',Penny,0,,,"short, ""quoted""\nsecond line",');
    expect(lines[2]).toMatch(/,7\.4,false,true,,$/);
    expect(lines[3]).toBe('');
  });

  it('fills options for multi choice, ranking and pairwise', () => {
    const labels = ['A', 'B', 'C'];
    expect(csvRecord(answerRow({ options: [0, 2] }), { type: 'multi_choice', labels, imageUrl: null, graded: false }).options).toBe('A | C');
    expect(csvRecord(answerRow({ order: [2, 0, 1], optionLabel: 'C' }), { type: 'ranking', labels, imageUrl: null, graded: false }).options).toBe('C > A > B');
    expect(csvRecord(answerRow({ pair: [1, 2], option: 2, optionLabel: 'C' }), { type: 'pairwise', labels, imageUrl: null, graded: false }).options).toBe('B vs C');
    // A label holding a separator leaves `options` ambiguous; `options_indexes` is not.
    const tricky = ['Red | Blue', 'Green', 'Blue'];
    expect(csvRecord(answerRow({ options: [0, 2] }), { type: 'multi_choice', labels: tricky, imageUrl: null, graded: false })).toMatchObject({ options: 'Red | Blue | Blue', options_indexes: '0 2' });
    expect(csvRecord(answerRow({ order: [2, 0, 1], optionLabel: 'Blue' }), { type: 'ranking', labels: tricky, imageUrl: null, graded: false }).options_indexes).toBe('2 0 1');
    expect(csvRecord(answerRow({ pair: [1, 2], option: 2, optionLabel: 'Blue' }), { type: 'pairwise', labels: tricky, imageUrl: null, graded: false }).options_indexes).toBe('1 2');
    expect(csvRecord(answerRow({ option: 0 }), choice).options_indexes).toBeNull();
    expect(csvRecord(answerRow({ option: 0 }), choice).options).toBeNull();
  });

  it('is made as it is read: 5,000 answers come in many chunks, the first before the last record is made', async () => {
    const rows = Array.from({ length: 5_000 }, (_, i) => answerRow({ option: i % 2, optionLabel: i % 2 ? 'Pocket' : 'Penny', reason: `reason ${i} `.repeat(10) }));
    let made = 0;
    const counting = new Proxy(rows, {
      get(target, property, receiver) {
        if (typeof property === 'string' && /^\d+$/.test(property)) made += 1;
        return Reflect.get(target, property, receiver);
      },
    });
    const stream = await answersCsv(counting, choice);
    let chunks = 0;
    let madeAtFirstChunk = -1;
    let bytes = 0;
    for await (const chunk of stream) {
      if (chunks === 0) madeAtFirstChunk = made;
      chunks += 1;
      bytes += chunk.length;
    }
    expect(made).toBe(5_000);
    expect(chunks).toBeGreaterThan(10);
    expect(madeAtFirstChunk, 'records made before the first chunk left').toBeLessThan(5_000);
    expect(bytes).toBeGreaterThan(5_000 * 100);
  });
});
