/** A tool's name: what the model calls, grants and policy rules name, and apps' actions point at. */
export const TOOL_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export const TOOL_NAME_RULE = 'a letter, then up to 63 letters, digits, _ or -';
