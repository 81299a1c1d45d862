export function tablePanel() { return null; }
