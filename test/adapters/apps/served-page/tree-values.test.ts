import { expect } from 'chai';
import {
  chartPoints,
  gridColumns,
  headingTag,
  inputType,
  isObject,
  list,
  num,
  str,
  tableColumns,
} from '../../../../adapters/apps/served-page/tree-values.js';

describe('The served page reads an app tree’s props as the chrome does (tree-values)', () => {
  it('shows a prop as text only when it is a string or a number', () => {
    expect([str('Add'), str(3), str(true), str(null), str(undefined)]).to.deep.equal(['Add', '3', undefined, undefined, undefined]);
  });

  it('reads a number written as text, and nothing from blank or non-numeric text', () => {
    expect([num(2), num('3'), num(' 4 '), num(''), num('  '), num('three'), num('Infinity'), num(null)]).to.deep.equal([
      2,
      3,
      4,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('splits a select’s options at commas or bars, dropping blanks', () => {
    expect(list('Low, Medium|High,, ')).to.deep.equal(['Low', 'Medium', 'High']);
    expect(list(['a'])).to.deep.equal([]);
  });

  it('takes only a plain object as a record with fields', () => {
    expect([isObject({ a: 1 }), isObject([1]), isObject(null), isObject('x')]).to.deep.equal([true, false, false, false]);
  });

  it('keeps a grid between one and six columns, two when it says none', () => {
    expect([gridColumns(undefined), gridColumns(0), gridColumns('3'), gridColumns(2.6), gridColumns(40)]).to.deep.equal([2, 1, 3, 3, 6]);
  });

  it('draws headings under the page’s own h1: level 1 is h2, nothing deeper than h5', () => {
    expect([headingTag(undefined), headingTag(1), headingTag('2'), headingTag(9), headingTag(-1)]).to.deep.equal([
      'h2',
      'h2',
      'h3',
      'h5',
      'h2',
    ]);
  });

  it('gives a field one of the known input types, else text', () => {
    expect([inputType('email'), inputType('date'), inputType('password'), inputType('file'), inputType(undefined)]).to.deep.equal([
      'email',
      'date',
      'text',
      'text',
      'text',
    ]);
  });

  it('charts only the records whose value is a number, labelled by the label key', () => {
    const records = [{ data: { day: 'Mon', n: 3 } }, { data: { day: 'Tue', n: '4' } }, { data: 'loose' }, { data: { n: 1 } }];
    expect(chartPoints(records, 'n', 'day')).to.deep.equal([
      { label: 'Mon', value: 3 },
      { label: '', value: 1 },
    ]);
  });

  it('shows a table’s named columns, else the first record’s first six fields', () => {
    const records = [{ data: { a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 } }];
    expect(tableColumns('b, a', records)).to.deep.equal(['b', 'a']);
    expect(tableColumns(undefined, records)).to.deep.equal(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(tableColumns(undefined, [])).to.deep.equal([]);
  });
});
