/** One repetition of the 850's PO1 loop (Guide JSON of x12-005010-850): line i, product SKU<i>. */
export function po1Loop(i: number): Record<string, unknown> {
  return {
    baseline_item_data_PO1: {
      assigned_identification_01: String(i + 1),
      quantity_ordered_02: 1 + (i % 7),
      unit_or_basis_for_measurement_code_03: 'EA',
      unit_price_04: 9.5,
      product_service_id_qualifier_06: 'VP',
      product_service_id_07: `SKU${i}`,
    },
  };
}
