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

/** A whole 850 (Guide JSON of x12-005010-850): purchase order `poNumber` with `lines` PO1 loops. */
export function po850(lines: number, poNumber = 'PO-1'): Record<string, unknown> {
  return {
    heading: {
      transaction_set_header_ST: { transaction_set_identifier_code_01: '850', transaction_set_control_number_02: 1 },
      beginning_segment_for_purchase_order_BEG: {
        transaction_set_purpose_code_01: '00',
        purchase_order_type_code_02: 'SA',
        purchase_order_number_03: poNumber,
        date_05: '2026-11-23',
      },
    },
    detail: { baseline_item_data_PO1_loop: Array.from({ length: lines }, (_, i) => po1Loop(i)) },
  };
}
