import { describe, expect, it } from "@jest/globals";
import { usePaths } from "../../src/compile/use-tree.js";

describe("the paths a use declaration imports", () => {
  it.each([
    ["use burn::backend::Wgpu;", ["burn::backend::Wgpu"]],
    ["use burn::backend::{Autodiff, Wgpu};", ["burn::backend::Autodiff", "burn::backend::Wgpu"]],
    [
      "use burn::{backend::Wgpu as W, train::{Learner, LearnerBuilder}};",
      ["burn::backend::Wgpu", "burn::train::Learner", "burn::train::LearnerBuilder"],
    ],
    ["use burn::backend::{self, wgpu::WgpuDevice};", ["burn::backend", "burn::backend::wgpu::WgpuDevice"]],
    ["use burn::prelude::*;", ["burn::prelude"]],
    ["use ::burn::optim::AdamConfig as _;", ["burn::optim::AdamConfig"]],
    ["pub use burn::data::{dataset::{vision::MnistDataset,},};", ["burn::data::dataset::vision::MnistDataset"]],
    [
      "use burn::tensor::Tensor;\nuse burn::train::{\n    Learner,\n};",
      ["burn::tensor::Tensor", "burn::train::Learner"],
    ],
  ])("%s", (source, paths) => {
    expect(usePaths(source)).toEqual(paths);
  });

  it("reads nothing from what is not a use declaration, and stops at a malformed tree", () => {
    expect(usePaths("type B = burn::backend::NdArray<f32>;")).toEqual([]);
    expect(usePaths("let used = burn::train::Learner::new();")).toEqual([]);
    expect(usePaths("use burn::{train::Learner")).toEqual(["burn::train::Learner"]);
    expect(usePaths("use burn::{, ;")).toEqual([]);
  });

  it("is bounded: groups nested past the limit and long sources are cut, not recursed into", () => {
    expect(usePaths(`use burn::${"a::{".repeat(5000)}X${"}".repeat(5000)};`)).toEqual([]);
    expect(usePaths(`use burn::{${Array.from({ length: 500 }, (_, i) => `m${i}`).join(", ")}};`)).toHaveLength(64);
  });
});
