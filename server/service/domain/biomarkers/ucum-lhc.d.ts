// @lhncbc/ucum-lhc 7 ships no types; only the parts units.ts uses are declared, as documented in its
// README and in source/ucumLhcUtils.js.
declare module '@lhncbc/ucum-lhc' {
  interface ValidateResult {
    status: 'valid' | 'invalid' | 'error';
    /** Null when invalid; may hold a suggested substitution when status is 'invalid'. */
    ucumCode: string | null;
    msg: string[];
  }

  interface ConvertResult {
    status: 'succeeded' | 'failed' | 'error';
    toVal: number | null;
    msg: string[];
  }

  interface BaseUnitsResult {
    status: 'succeeded' | 'invalid' | 'failed' | 'error';
    msg: string[];
    magnitude?: number;
    fromUnitIsSpecial?: boolean;
    unitToExp?: Record<string, number>;
  }

  interface ConvertOptions {
    suggest?: boolean;
    /** g/mol, for a mol ↔ mass conversion. */
    molecularWeight?: number;
    /** Absolute charge, for an equivalent ↔ mol/mass conversion. */
    charge?: number;
  }

  interface UcumLhcUtils {
    validateUnitString(uStr: string, suggest?: boolean): ValidateResult;
    convertUnitTo(fromUnitCode: string, fromVal: number, toUnitCode: string, options?: ConvertOptions): ConvertResult;
    convertToBaseUnits(fromUnit: string, fromVal: number): BaseUnitsResult;
  }

  const ucum: {
    UcumLhcUtils: { getInstance(): UcumLhcUtils };
  };
  export = ucum;
}
